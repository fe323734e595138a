// A survey's colour on its respondent pages: a tiny stylesheet per colour (the policy allows no
// style attributes and no per-page <style>), cached for good since its URL names the colour. The
// colour is darkened until white text on it, and it as text on white, reach WCAG AA (4.5:1).
import type { FastifyInstance } from 'fastify';

const HEX = /^[0-9a-f]{6}$/;

function luminance([r, g, b]: number[]): number {
  const lin = (c: number) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** The colour, darkened as little as needed for 4.5:1 against white. */
export function accessibleAccent(hex: string): string {
  let rgb = [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  while (1.05 / (luminance(rgb) + 0.05) < 4.5) rgb = rgb.map((c) => Math.floor(c * 0.92));
  return rgb.map((c) => c.toString(16).padStart(2, '0')).join('');
}

export function themeStylesheet(color: string): string {
  return `/r/theme/${color.replace('#', '').toLowerCase()}.css`;
}

export async function themeRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Params: { file: string } }>(
    '/r/theme/:file',
    { schema: { hide: true } },
    async (request, reply) => {
      const m = /^([0-9a-f]{6})\.css$/.exec(request.params.file);
      if (!m || !HEX.test(m[1])) return reply.code(404).type('text/plain').send('Not found');
      const accent = accessibleAccent(m[1]);
      return reply
        .type('text/css; charset=utf-8')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(
          `:root { --accent: #${accent}; --accent-soft: #${accent}14; }\nheader.respondent { border-bottom: 4px solid #${accent}; }\n`,
        );
    },
  );
}
