import { ServiceTestApp } from '@shiliu/platform/testing';
import { socialService } from '../src';

export { type Answer, postSnapshot, type TestUser } from '@shiliu/platform/testing';

/** The social service as every service's tests start one: fed auth's and content's events through the in-process bus. */
export class SocialTestApp extends ServiceTestApp {
  static async start(): Promise<SocialTestApp> {
    return new SocialTestApp(await ServiceTestApp.boot(socialService));
  }
}
