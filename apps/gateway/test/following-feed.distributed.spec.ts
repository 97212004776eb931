import { describeFollowingFeed } from './following-feed';

describeFollowingFeed('distributed');
