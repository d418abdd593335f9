import 'reflect-metadata';
import { runMain } from '@app/runtime';
import { createCommentsApp } from './comments.app';

runMain('comments', createCommentsApp);
