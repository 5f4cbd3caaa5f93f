/** Spec §2: the first letters of first and last name, "U" when there are none. */
export function initials(user: { firstName?: string | null; lastName?: string | null } | null): string {
  const letters = [user?.firstName, user?.lastName].map((name) => name?.trim().charAt(0) ?? '').join('');
  return letters.toUpperCase() || 'U';
}
