import { MediaTables1763800000000 } from './1763800000000-media-tables';
import { UploadUses1764300000000 } from './1764300000000-upload-uses';
import { ImageWidths1764400000000 } from './1764400000000-image-widths';

/** Media's schema, in order: the API's process and the workers both bring a database up to it. */
export const mediaMigrations = [MediaTables1763800000000, UploadUses1764300000000, ImageWidths1764400000000];
