import { describeRecommendFeed } from './recommend-feed';

describeRecommendFeed('embedded');
