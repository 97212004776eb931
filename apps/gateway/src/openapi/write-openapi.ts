import { writeFileSync } from 'node:fs';
import { API_DOCUMENT_FILE } from '@shiliu/contracts';
import { buildOpenApi, openApiProblems, webApiTypes, webApiTypesFile } from './build-openapi';

/** `nx run @shiliu/app-gateway:openapi`: rebuilds the checked-in document from the code. */
async function main(): Promise<void> {
  const document = await buildOpenApi();
  const problems = await openApiProblems(document);
  if (problems.length > 0) throw new Error(`the document is not valid OpenAPI 3:\n${problems.join('\n')}`);
  writeFileSync(API_DOCUMENT_FILE, `${JSON.stringify(document, null, 2)}\n`);
  writeFileSync(webApiTypesFile, webApiTypes(document));
  console.log(`wrote ${API_DOCUMENT_FILE} (${Object.keys(document.paths).length} paths) and ${webApiTypesFile}`);
}

void main();
