// The bench scenarios. Each prepares its data through the public API and names the request wrk
// repeats; `unit` converts requests/s into items/s where a request carries many items.
export const scenarios = [
  {
    name: 'users_me',
    description: 'GET /v3/users/me',
    target: '>= 0.40 of floor, p99 < 20 ms',
    prepare: async () => ({ path: '/v3/users/me' }),
  },
  {
    name: 'users_me_counted',
    description: 'GET /v3/users/me for an app with (very high) rate limits: every request is counted',
    target: 'informative: the cost of counting',
    prepare: async (ctx) => {
      const app = ctx.cli([
        'app',
        'create',
        '--owner',
        'bench',
        '--name',
        'Counted',
        '--minute-limit',
        '2000000000',
        '--day-limit',
        '2000000000',
      ]);
      return { path: '/v3/users/me', token: app.access_token };
    },
  },
];
