interface ImportMetaEnv {
  /** The footer's Help Center link; unset hides it. */
  readonly VITE_HELP_URL?: string;
  /** The footer's Support link (a URL or mailto:); unset hides it. */
  readonly VITE_SUPPORT_URL?: string;
}
