// openapi-typescript builds its output with TypeScript's compiler API, which TypeScript 7 (the
// project's compiler) no longer has: for that tool alone, `typescript` resolves to TypeScript 5.
export async function resolve(specifier, context, next) {
  return next(specifier === 'typescript' ? 'typescript5' : specifier, context);
}
