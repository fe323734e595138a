// The bench scenarios. Each prepares its data through the public API and names the request wrk
// repeats; `unit` converts requests/s into items/s where a request carries many items.
export const scenarios = [
  {
    name: 'users_me',
    description: 'GET /v3/users/me',
    target: '>= 0.40 of floor, p99 < 20 ms',
    prepare: async () => ({ path: '/v3/users/me' }),
  },
];
