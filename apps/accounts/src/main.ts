import 'reflect-metadata';
import { runMain } from '@app/runtime';
import { createAccountsApp } from './accounts.app';

runMain('accounts', createAccountsApp);
