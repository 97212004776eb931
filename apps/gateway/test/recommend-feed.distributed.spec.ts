import { describeRecommendFeed } from './recommend-feed';

describeRecommendFeed('distributed');
