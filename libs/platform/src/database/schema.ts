import type { QueryRunner } from 'typeorm';

/** The schema of the service whose migrations are running (each service owns one schema). */
export function schemaOf(queryRunner: QueryRunner): string {
  const schema = (queryRunner.connection.options as { schema?: string }).schema;
  if (!schema || !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Invalid service schema "${schema}"`);
  return schema;
}
