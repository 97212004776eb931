/** Status messages the spec gives (public-side.md §8, admin-and-startup.md §8). */
export const statusMessages: Record<number, string> = {
  200: 'success',
  400: '请求参数错误',
  401: '未授权访问',
  403: '禁止访问',
  404: '资源不存在',
  405: '不支持该请求方法',
  408: '请求超时，请稍后重试',
  409: '资源冲突',
  413: '请求内容过大',
  415: '不支持的请求格式',
  429: '请求过于频繁，请稍后再试',
  431: '请求头或请求地址过长',
  500: '服务器内部错误',
  502: '服务暂时不可用，请稍后重试',
  503: '服务暂时不可用，请稍后重试',
  504: '服务响应超时，请稍后重试',
};

export function messageForStatus(status: number): string {
  return statusMessages[status] ?? statusMessages[status >= 500 ? 500 : 400];
}
