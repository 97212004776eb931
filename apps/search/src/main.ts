import 'reflect-metadata';
import { runServiceProcess } from '@shiliu/platform';
import { searchService } from '@shiliu/search';

void runServiceProcess(searchService);
