/**
 * Lets a child `node` process run the TypeScript sources as jest runs them
 * (node -r ./test/support/swc-register.cjs file.ts): @swc/core compiles each
 * .ts on require, @app/<lib> names libs/<lib>/src, and `./x.js` finds `./x.ts`
 * (jest.config.js moduleNameMapper). For tests that start a process of ours
 * (the MCP server on stdio) without building first.
 */
const Module = require('node:module');
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { transformSync } = require('@swc/core');

const root = path.resolve(__dirname, '../..');
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  const lib = /^@app\/([a-z-]+)(\/.*)?$/.exec(request);
  if (lib) request = path.join(root, 'libs', lib[1], 'src', lib[2] ?? '');
  else if (/^\.{1,2}\/.*\.js$/.test(request) && parent?.filename?.endsWith('.ts')) request = request.slice(0, -3);
  return resolveFilename.call(this, request, parent, ...rest);
};

require.extensions['.ts'] = function (module, filename) {
  const { code } = transformSync(readFileSync(filename, 'utf8'), {
    filename,
    sourceMaps: 'inline',
    jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
