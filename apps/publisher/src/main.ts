import 'reflect-metadata';
import { runMain } from '@app/runtime';
import { createPublisherApp } from './publisher.app';

runMain('publisher', createPublisherApp);
