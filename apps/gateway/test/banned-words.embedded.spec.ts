import { describeBannedWords } from './banned-words';

describeBannedWords('embedded');
