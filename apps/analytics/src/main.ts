import 'reflect-metadata';
import { runMain } from '@app/runtime';
import { createAnalyticsApp } from './analytics.app';

runMain('analytics', createAnalyticsApp);
