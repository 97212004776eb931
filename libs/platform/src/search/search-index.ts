/**
 * A full-text index of documents of one kind (notes, users): PostgreSQL trigram search in embedded mode,
 * Elasticsearch in distributed mode.
 */
export interface SearchIndex<Doc extends object> {
  upsert(id: string, document: Doc): Promise<void>;
  remove(id: string): Promise<void>;
  search(query: string, page: number, limit: number): Promise<{ ids: string[]; total: number }>;
}
