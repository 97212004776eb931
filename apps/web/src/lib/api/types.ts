import type { components } from './schema';

type Schemas = components['schemas'];
export type Note = Schemas['PostView'];
export type NoteComment = Schemas['CommentView'];
export type PublicUser = Schemas['PublicUser'];
export type Channel = Schemas['CategoryRow'];
export type FollowListItem = Schemas['FollowListItem'];
export type ButtonType = Schemas['FollowState']['buttonType'];
export type UploadedImage = Schemas['UploadedImage'];
export type ProfileUpdate = Schemas['UpdateProfileDto'];
