// The 32-char hex ids of workgroups, role assignments and shares (the reference's shape for them);
// every other id is a digit string from deps.ids.
import { randomUUID } from 'node:crypto';

export const hexId = () => randomUUID().replaceAll('-', '');
