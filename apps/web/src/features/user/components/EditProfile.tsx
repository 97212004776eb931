import { useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, type FormEvent, type KeyboardEvent, useState } from 'react';
import { Avatar } from '../../../components/Avatar';
import { Modal } from '../../../components/Modal';
import { upload, type ProfileUpdate, type PublicUser, type UploadedImage } from '../../../lib/api/client';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { updateProfile, userKeys } from '../api/users';
import { AvatarCrop } from './AvatarCrop';

/** Profile limits (public-side.md §5, §9). */
export const LIMITS = { nickname: 10, bio: 200, major: 11, interest: 8, interests: 5, avatarBytes: 5 * 1024 * 1024 };
const AVATAR_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
const GENDERS: [NonNullable<ProfileUpdate['gender']>, string][] = [
  ['男', '男'],
  ['女', '女'],
  ['', '暂不设置'],
];
const ZODIACS = ['白羊座', '金牛座', '双子座', '巨蟹座', '狮子座', '处女座', '天秤座', '天蝎座', '射手座', '摩羯座', '水瓶座', '双鱼座'] as const;
const EDUCATIONS: [NonNullable<ProfileUpdate['education']>, string][] = [
  ['高中', '高中及以下'],
  ['大专', '大专'],
  ['本科', '本科'],
  ['硕士', '硕士'],
  ['博士', '博士'],
];
const MBTI_PAIRS = [
  ['E', 'I'],
  ['S', 'N'],
  ['T', 'F'],
  ['J', 'P'],
] as const;

/** Adds an interest by the rules: trimmed, at most 8 characters, at most 5, no duplicates. */
export function addInterest(list: string[], value: string): string[] {
  const interest = value.trim().slice(0, LIMITS.interest);
  if (!interest || list.includes(interest) || list.length >= LIMITS.interests) return list;
  return [...list, interest];
}

/** Edit profile: avatar (square crop), nickname, bio, gender, zodiac sign, MBTI, education, major, interests. */
export function EditProfile({ user, onClose }: { user: PublicUser; onClose: () => void }) {
  const client = useQueryClient();
  const [avatar, setAvatar] = useState(user.avatar);
  const [nickname, setNickname] = useState(user.nickname);
  const [bio, setBio] = useState(user.bio === '用户没有任何简介' ? '' : user.bio);
  const [gender, setGender] = useState<NonNullable<ProfileUpdate['gender']>>((user.gender as ProfileUpdate['gender']) === '男' || user.gender === '女' ? (user.gender as '男' | '女') : '');
  const [zodiac, setZodiac] = useState<NonNullable<ProfileUpdate['zodiac_sign']>>((user.zodiac_sign ?? '') as NonNullable<ProfileUpdate['zodiac_sign']>);
  const [mbti, setMbti] = useState<string[]>(() => MBTI_PAIRS.map((pair, index) => (user.mbti?.[index] && (pair as readonly string[]).includes(user.mbti[index]) ? user.mbti[index] : '')));
  const [education, setEducation] = useState<NonNullable<ProfileUpdate['education']>>((user.education ?? '') as NonNullable<ProfileUpdate['education']>);
  const [major, setMajor] = useState(user.major ?? '');
  const [interests, setInterests] = useState<string[]>(user.interests ?? []);
  const [draft, setDraft] = useState('');
  const [cropping, setCropping] = useState<File | null>(null);
  const [uploading, setUploading] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState('');

  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!AVATAR_TYPES.includes(file.type)) {
      toast.error('不支持的文件类型');
      return;
    }
    if (file.size > LIMITS.avatarBytes) {
      toast.error(`图片大小为 ${(file.size / 1024 / 1024).toFixed(1)} MB，超过 5MB 限制`);
      return;
    }
    setCropping(file);
  };

  const cropped = async (blob: Blob) => {
    setCropping(null);
    setUploading(true);
    try {
      const form = new FormData();
      form.append('image', blob, 'avatar.jpg');
      const uploaded = await upload<UploadedImage>('/api/upload/image', form);
      setAvatar(uploaded.url);
    } catch {
      toast.error('头像上传失败，请重试');
    } finally {
      setUploading(false);
    }
  };

  const commitInterest = () => {
    setInterests((list) => addInterest(list, draft));
    setDraft('');
  };

  const onInterestKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      commitInterest();
    }
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!nickname.trim()) {
      setError('请输入昵称');
      return;
    }
    setSaving(true);
    try {
      const mbtiValue = mbti.every(Boolean) ? mbti.join('') : '';
      const saved = await updateProfile(user.user_id, { avatar, nickname: nickname.trim(), bio: bio.trim() || '用户没有任何简介', gender, zodiac_sign: zodiac, mbti: mbtiValue, education, major: major.trim(), interests });
      useSession.getState().setUser(saved);
      client.setQueryData(userKeys.user(user.user_id), saved);
      void client.invalidateQueries({ queryKey: userKeys.all });
      toast.success('保存成功');
      onClose();
    } catch (failure) {
      toast.error(failure instanceof Error ? failure.message : '更新失败，请重试');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal title="编辑资料" onClose={onClose} width={520} className="edit-profile">
      <form className="form" onSubmit={(event) => void save(event)} noValidate>
        <div className="avatar-edit">
          <Avatar src={avatar} size={80} />
          <label className="button ghost small">
            {uploading ? '上传中...' : '更换头像'}
            <input type="file" accept={AVATAR_TYPES.join(',')} hidden onChange={pick} aria-label="选择头像" />
          </label>
        </div>
        <label className={`field labelled ${error ? 'invalid' : ''}`}>
          <span>昵称</span>
          <input
            value={nickname}
            maxLength={LIMITS.nickname}
            onChange={(event) => {
              setNickname(event.target.value);
              setError('');
            }}
            aria-label="昵称"
          />
          {error && <span className="field-error">{error}</span>}
        </label>
        <label className="field labelled">
          <span>简介</span>
          <textarea value={bio} rows={3} maxLength={LIMITS.bio} onChange={(event) => setBio(event.target.value.slice(0, LIMITS.bio))} aria-label="简介" />
          <span className="counter">
            {bio.length}/{LIMITS.bio}
          </span>
        </label>
        <div className="field labelled">
          <span>性别</span>
          <div className="segmented">
            {GENDERS.map(([value, label]) => (
              <button key={label} type="button" className={gender === value ? 'active' : ''} onClick={() => setGender(value)}>
                {label}
              </button>
            ))}
          </div>
        </div>
        <div className="field-row">
          <label className="field labelled">
            <span>星座</span>
            <select value={zodiac} onChange={(event) => setZodiac(event.target.value as typeof zodiac)} aria-label="星座">
              <option value="">暂不设置</option>
              {ZODIACS.map((sign) => (
                <option key={sign}>{sign}</option>
              ))}
            </select>
          </label>
          <label className="field labelled">
            <span>学历</span>
            <select value={education} onChange={(event) => setEducation(event.target.value as typeof education)} aria-label="学历">
              <option value="">暂不设置</option>
              {EDUCATIONS.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
        </div>
        <div className="field labelled">
          <span>MBTI</span>
          <div className="mbti">
            {MBTI_PAIRS.map((pair, index) => (
              <div key={pair.join('')} className="segmented">
                {pair.map((letter) => (
                  <button key={letter} type="button" className={mbti[index] === letter ? 'active' : ''} onClick={() => setMbti(mbti.map((value, at) => (at === index ? (value === letter ? '' : letter) : value)))}>
                    {letter}
                  </button>
                ))}
              </div>
            ))}
          </div>
        </div>
        <label className="field labelled">
          <span>专业</span>
          <input value={major} maxLength={LIMITS.major} onChange={(event) => setMajor(event.target.value)} aria-label="专业" />
        </label>
        <div className="field labelled">
          <span>兴趣爱好</span>
          <div className="chips-input">
            {interests.map((interest) => (
              <span key={interest} className="chip removable">
                {interest}
                <button type="button" aria-label={`移除 ${interest}`} onClick={() => setInterests(interests.filter((known) => known !== interest))}>
                  ×
                </button>
              </span>
            ))}
            {interests.length < LIMITS.interests && <input value={draft} maxLength={LIMITS.interest} placeholder="回车添加" onChange={(event) => setDraft(event.target.value)} onKeyDown={onInterestKey} onBlur={commitInterest} aria-label="添加兴趣" />}
          </div>
        </div>
        <div className="confirm-actions">
          <button type="button" className="button ghost" onClick={onClose}>
            取消
          </button>
          <button type="submit" className="button primary" disabled={saving || uploading}>
            {saving ? '保存中...' : '保存'}
          </button>
        </div>
      </form>
      {cropping && <AvatarCrop file={cropping} onDone={(blob) => void cropped(blob)} onClose={() => setCropping(null)} />}
    </Modal>
  );
}
