import type { WhiteLabelConfig } from '../contract/branding';
import { getWhiteLabelConfig } from '../contract/resources/settings';
import { call } from './action';

/** The white-label configuration, or null when it could not be loaded (malformed answers included). */
export async function fetchBranding(signal?: AbortSignal): Promise<WhiteLabelConfig | null> {
  try {
    return (await call(getWhiteLabelConfig, {}, { signal })).data;
  } catch {
    return null;
  }
}
