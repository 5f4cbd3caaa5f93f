import { WhiteLabelConfigSchema, type WhiteLabelConfig } from '../contract/branding';
import { messages } from '../contract/messages';
import { requestData } from './request';

/** The white-label configuration, or null when it could not be loaded (malformed answers included). */
export async function fetchBranding(signal?: AbortSignal): Promise<WhiteLabelConfig | null> {
  try {
    return await requestData('/api/white-label/config', WhiteLabelConfigSchema, { signal, fallback: messages.requestFailed });
  } catch {
    return null;
  }
}
