import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import ts from 'typescript';
import { repoRoot } from './corpus';

/**
 * Loads a dependency-free module of the explorer (web/src/…, type-checked by the web build) for a
 * unit test, transpiled on the fly: importing it would make tsc emit it into dist/web, which the
 * explorer's build empties.
 */
export function loadWebModule<T>(relative: string): T {
  const file = path.join(repoRoot, 'web', 'src', relative);
  const { outputText } = ts.transpileModule(fs.readFileSync(file, 'utf8'), { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 }, fileName: file });
  const module = { exports: {} as Record<string, unknown> };
  vm.runInThisContext(`(function (exports, module, require) {${outputText}\n})`, { filename: file })(module.exports, module, () => {
    throw new Error(`${relative} must not import anything`);
  });
  return module.exports as T;
}
