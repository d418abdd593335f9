import 'reflect-metadata';
import { runMain } from '@app/runtime';
import { createProjectorApp } from './projector.app';

runMain('projector', createProjectorApp);
