// The import-cycle check `npm run lint` runs (dependency-cruiser). A circle of imports means no
// file in it can be read, typechecked or changed alone; type-only imports count too, because they
// tie the files together for the compiler just the same (one such circle once tied 92 files).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No file may reach itself through its imports, type-only ones included.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Count `import type` as an edge: the check is about files that cannot be understood alone.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(node_modules|dist)/' },
  },
}
