import type { ScopeTable } from './documented-scopes';

/**
 * LinkedIn (Community Management API and Sign In with LinkedIn): each page's "Permissions"
 * table. Posting and its media take the member's permission when the member is the author,
 * the organization's when an organization is (the first set is the organization's: the
 * sandbox names the missing one of it).
 */
const MARKETING = 'https://learn.microsoft.com/en-us/linkedin/marketing/community-management';
const WRITE = [['w_organization_social'], ['w_member_social']];
const READ = [['r_organization_social'], ['r_member_social']];

export const LINKEDIN_DOCUMENTED_SCOPES: ScopeTable = [
  { method: 'POST', path: '/rest/posts', anyOf: WRITE, doc: `${MARKETING}/shares/posts-api#permissions` },
  { method: 'GET', path: '/rest/posts', anyOf: READ, doc: `${MARKETING}/shares/posts-api#find-posts-by-authors` },
  { method: 'POST', path: '/rest/images', anyOf: WRITE, doc: `${MARKETING}/shares/images-api#permissions` },
  { method: 'PUT', path: '/dms-uploads/{token}/uploaded-image/0', anyOf: WRITE, doc: `${MARKETING}/shares/images-api#upload-the-image` },
  { method: 'GET', path: '/rest/images/{image-urn}', anyOf: READ, doc: `${MARKETING}/shares/images-api#get-a-single-image` },
  { method: 'POST', path: '/rest/videos', anyOf: WRITE, doc: `${MARKETING}/shares/videos-api#permissions` },
  { method: 'GET', path: '/rest/videos/{video-urn}', anyOf: READ, doc: `${MARKETING}/shares/videos-api#get-a-video` },
  { method: 'POST', path: '/rest/socialActions/{target-urn}/comments', anyOf: WRITE, doc: `${MARKETING}/shares/comments-api#permissions` },
  { method: 'GET', path: '/rest/socialActions/{target-urn}/comments', anyOf: READ, doc: `${MARKETING}/shares/comments-api#retrieve-comments-on-shares` },
  { method: 'DELETE', path: '/rest/socialActions/{target-urn}/comments/{comment-id}', anyOf: WRITE, doc: `${MARKETING}/shares/comments-api#delete-comments` },
  // Analytics. Organizations: share statistics and the follower count need rw_organization_admin (an ADMINISTRATOR of
  // the organization). Members: post statistics need r_member_postAnalytics, the follower count r_member_profileAnalytics.
  { method: 'GET', path: '/rest/organizationalEntityShareStatistics', anyOf: [['rw_organization_admin']], doc: `${MARKETING}/organizations/share-statistics#permissions` },
  { method: 'GET', path: '/rest/networkSizes/{organization-urn}', anyOf: [['rw_organization_admin']], doc: `${MARKETING}/organizations/organization-lookup-api#retrieve-organization-follower-count` },
  { method: 'GET', path: '/rest/memberCreatorPostAnalytics', anyOf: [['r_member_postAnalytics']], doc: `${MARKETING}/members/post-statistics#permissions` },
  { method: 'GET', path: '/rest/memberFollowersCount', anyOf: [['r_member_profileAnalytics']], doc: `${MARKETING}/members/follower-statistics#permissions` },
  { method: 'GET', path: '/v2/userinfo', anyOf: [['openid', 'profile']], doc: 'https://learn.microsoft.com/en-us/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2#api-request-to-retreive-member-details' },
  { method: 'GET', path: '/rest/organizationAcls', anyOf: [['r_organization_admin'], ['rw_organization_admin']], doc: `${MARKETING}/organizations/organization-access-control-by-role#permissions` },
];
