export * from './weekly-schedule';
