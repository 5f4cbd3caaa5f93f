import { DEFAULT_BRANDING, WhiteLabelConfigSchema, type WhiteLabelConfig } from '../contract/branding';
import { request } from './request';

/** Spec §8: any failure, malformed answers included, falls back to the default branding without a message. */
export async function fetchBranding(signal?: AbortSignal): Promise<WhiteLabelConfig> {
  try {
    const { data } = await request<unknown>('/api/white-label/config', { signal });
    return WhiteLabelConfigSchema.parse(data);
  } catch {
    return DEFAULT_BRANDING;
  }
}
