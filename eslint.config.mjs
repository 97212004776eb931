import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/*.js', '**/*.mjs', 'infra/**', 'apps/web/vite.config.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unsafe-function-type': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:gateway', 'type:service', 'type:platform', 'type:contracts'] },
            { sourceTag: 'type:gateway', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts'] },
            { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts'] },
            { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:contracts'] },
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:web', onlyDependOnLibsWithTags: ['type:contracts'] },
          ],
        },
      ],
    },
  },
);
