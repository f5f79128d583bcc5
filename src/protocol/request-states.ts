import * as z from 'zod';

// The states a request goes through are part of the protocol: the send rules refuse an answer
// to a request that is no longer pending. The team store records and moves them.
export const REQUEST_STATES = ['pending', 'approved', 'rejected', 'expired', 'cancelled'] as const;
export const RequestState = z.enum(REQUEST_STATES);
export type RequestState = z.infer<typeof RequestState>;
