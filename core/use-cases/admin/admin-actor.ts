/** The platform administrator behind an admin request (never an impersonation session: the auth rule refuses those). */
export interface AdminActor {
  userId: string;
}
