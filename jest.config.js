/** Test tiers by file name: *.spec.ts (pure), *.int-spec.ts (real Postgres/NATS), test/e2e/*.e2e-spec.ts (HTTP). */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': swc },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/{apps,libs,test,tools}/**/*.{spec,int-spec,e2e-spec}.ts'],
  moduleNameMapper: {
    '^@app/([a-z-]+)$': '<rootDir>/libs/$1/src',
    '^@app/([a-z-]+)/(.*)$': '<rootDir>/libs/$1/src/$2',
  },
  testTimeout: 30000,
};
