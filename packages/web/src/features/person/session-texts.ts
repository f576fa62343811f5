import { defineTexts } from '../../lib/i18n.tsx';

export const sessionTexts = defineTexts({
  en: {
    title: 'Sessions',
    explain:
      'Each sign-in on a device is a session. A session unused for a while ends by itself; end any you do not recognise.',
    device: 'Device (browser)',
    ip: 'Address',
    createdAt: 'Signed in',
    lastUsedAt: 'Last active',
    current: 'This device',
    unknown: 'Unknown',
    end: 'End',
    confirmEnd: 'End this session? That device will have to sign in again.',
    ended: 'Session ended.',
    endOthers: 'End all other sessions',
    confirmOthers: 'End every session except this one?',
    othersEnded: 'Other sessions ended.',
  },
  zh: {
    title: '会话',
    explain: '每次在设备上登录即为一个会话。闲置一段时间的会话会自动结束；如有不认识的会话，请将其结束。',
    device: '设备（浏览器）',
    ip: '地址',
    createdAt: '登录时间',
    lastUsedAt: '最近活动',
    current: '当前设备',
    unknown: '未知',
    end: '结束',
    confirmEnd: '结束此会话？该设备需要重新登录。',
    ended: '会话已结束。',
    endOthers: '结束其他所有会话',
    confirmOthers: '结束除当前会话以外的所有会话？',
    othersEnded: '其他会话已结束。',
  },
});
