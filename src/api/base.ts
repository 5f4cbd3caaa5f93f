/** Origin of the API without a trailing slash (VITE_API_BASE); '' means the app's own origin. */
export function apiBase(): string {
  return (import.meta.env.VITE_API_BASE ?? '').replace(/\/+$/, '');
}
