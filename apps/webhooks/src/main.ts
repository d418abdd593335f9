import 'reflect-metadata';
import { runMain } from '@app/runtime';
import { createWebhooksApp } from './webhooks.app';

runMain('webhooks', createWebhooksApp);
