/** An invitation's link to the desk works once, for this long (the team's invitations and the hotel file's first owner). */
export const INVITE_LINK_HOURS = 72;
