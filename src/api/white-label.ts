import { DEFAULT_BRANDING, WhiteLabelConfigSchema, type WhiteLabelConfig } from '../contract/branding';
import { messages } from '../contract/messages';
import { requestData } from './request';

/** Spec §8: any failure, malformed answers included, falls back to the default branding without a message. */
export async function fetchBranding(signal?: AbortSignal): Promise<WhiteLabelConfig> {
  try {
    return await requestData('/api/white-label/config', WhiteLabelConfigSchema, { signal, fallback: messages.requestFailed });
  } catch {
    return DEFAULT_BRANDING;
  }
}
