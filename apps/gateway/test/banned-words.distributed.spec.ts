import { describeBannedWords } from './banned-words';

describeBannedWords('distributed');
