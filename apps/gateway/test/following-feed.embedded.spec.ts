import { describeFollowingFeed } from './following-feed';

describeFollowingFeed('embedded');
