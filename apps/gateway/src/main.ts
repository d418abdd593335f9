import 'reflect-metadata';
import { runMain } from '@app/runtime';
import { createGatewayApp } from './gateway.app';

runMain('gateway', createGatewayApp);
