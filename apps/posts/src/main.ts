import 'reflect-metadata';
import { runMain } from '@app/runtime';
import { createPostsApp } from './posts.app';

runMain('posts', createPostsApp);
