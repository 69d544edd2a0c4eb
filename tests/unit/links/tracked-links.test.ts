import { expect } from 'chai';
import { countsAsClick, isHtmlBody, replaceUrls, textUrls, MAX_TRACKED_LINKS_PER_MESSAGE } from '../../../core/domain/tracked-links.ts';
import { trackBody, type LinkTrackingOption } from '../../../core/use-cases/links/link-tracking.ts';
import { RandomLinkCodes } from '../../../adapters/security/random-link-codes.ts';

let n = 0;
const seq = { next: () => `C${String(++n).padStart(11, '0')}` };
const option = (overrides: Partial<LinkTrackingOption> = {}): LinkTrackingOption => ({
  base: 'https://nkra.example/l', codes: seq, untracked: ['https://nkra.example/u/', 'https://nkra.example/l/'], untrackedTemplateIds: new Set(), emailOpens: false, ...overrides,
});

describe('tracked links: finding and replacing URLs', () => {
  beforeEach(() => { n = 0; });

  it('leaves sentence punctuation and closing quotes out of a URL at the end of a sentence', () => {
    const urls = (s: string) => textUrls(s).map((u) => u.url);
    expect(urls('Pay at https://shop.example.com.gh/pay.')).to.deep.equal(['https://shop.example.com.gh/pay']);
    expect(urls('Go (https://a.example/x), now!')).to.deep.equal(['https://a.example/x']);
    expect(urls('"https://a.example/q?x=1&y=2"; or https://b.example/?!')).to.deep.equal(['https://a.example/q?x=1&y=2', 'https://b.example/']);
    expect(urls('See https://en.wikipedia.org/wiki/Accra_(city).')).to.deep.equal(['https://en.wikipedia.org/wiki/Accra_(city)']);
    expect(urls('no scheme www.example.com or http://localhost here')).to.deep.equal([]);
  });

  it('replaces each distinct URL of a text body once, keeping the text around it', () => {
    const { body, links } = trackBody('Hi! Pay: https://shop.example/pay. Again https://shop.example/pay, help http://help.example/a', 'SMS', null, option());
    expect(body).to.equal('Hi! Pay: https://nkra.example/l/C00000000001. Again https://nkra.example/l/C00000000001, help https://nkra.example/l/C00000000002');
    expect(links).to.deep.equal([{ code: 'C00000000001', url: 'https://shop.example/pay' }, { code: 'C00000000002', url: 'http://help.example/a' }]);
  });

  it('never tracks our own links again (already-tracked links, opt-out links) and still tracks a public shortener link (the compliance check flags it in the text as written)', () => {
    const body = 'a https://nkra.example/l/C00000000009 b https://nkra.example/u/tok c https://bit.ly/x';
    const tracked = trackBody(body, 'WHATSAPP', null, option());
    expect(tracked.body).to.equal('a https://nkra.example/l/C00000000009 b https://nkra.example/u/tok c https://nkra.example/l/C00000000001');
    expect(tracked.links).to.deep.equal([{ code: 'C00000000001', url: 'https://bit.ly/x' }]);
  });

  it('tracks only the href of an HTML email\'s links (entities decoded for the target), not the visible text or images', () => {
    const html = '<p>Visit <a class="b" href="https://shop.example/p?a=1&amp;b=2">https://shop.example/p</a> <img src="https://cdn.example/i.png"> <a href=\'mailto:x@y.z\'>mail</a></p>';
    expect(isHtmlBody(html)).to.equal(true);
    const { body, links } = trackBody(html, 'EMAIL', null, option());
    expect(body).to.equal('<p>Visit <a class="b" href="https://nkra.example/l/C00000000001">https://shop.example/p</a> <img src="https://cdn.example/i.png"> <a href=\'mailto:x@y.z\'>mail</a></p>');
    expect(links).to.deep.equal([{ code: 'C00000000001', url: 'https://shop.example/p?a=1&b=2' }]);
  });

  it('tracks a plain-text email as text, and adds the open pixel to an HTML email only when opens are on', () => {
    expect(trackBody('Read https://a.example/x', 'EMAIL', null, option()).body).to.equal('Read https://nkra.example/l/C00000000001');
    n = 0;
    const opened = trackBody('<html><body><p>Hi</p></body></html>', 'EMAIL', null, option({ emailOpens: true }));
    expect(opened.body).to.equal('<html><body><p>Hi</p><img src="https://nkra.example/l/o/C00000000001.gif" width="1" height="1" alt="" style="display:block;border:0"></body></html>');
    expect(opened.links).to.deep.equal([{ code: 'C00000000001', url: 'open:' }]);
  });

  it('leaves bodies alone for untracked templates, an organization that turned tracking off, and channels without links', () => {
    expect(trackBody('x https://a.example/', 'SMS', 'tpl-1', option({ untrackedTemplateIds: new Set(['tpl-1']) })).links).to.deep.equal([]);
    expect(trackBody('x https://a.example/', 'SMS', null, option({ untrackedTemplateIds: new Set(['*']) })).links).to.deep.equal([]);
    expect(trackBody('x https://a.example/', 'PUSH', null, option()).links).to.deep.equal([]);
    expect(trackBody('x https://a.example/', 'SMS', null, undefined).links).to.deep.equal([]);
  });

  it('tracks at most MAX_TRACKED_LINKS_PER_MESSAGE distinct URLs of a body', () => {
    const body = Array.from({ length: MAX_TRACKED_LINKS_PER_MESSAGE + 3 }, (_, i) => `https://a.example/${i}`).join(' ');
    expect(replaceUrls(body, false, (url) => ({ code: url, shortUrl: 'S' })).links).to.have.length(MAX_TRACKED_LINKS_PER_MESSAGE);
  });

  it('makes unguessable base62 codes of 12 characters', () => {
    const codes = new RandomLinkCodes();
    const made = new Set(Array.from({ length: 2_000 }, () => codes.next()));
    expect(made.size).to.equal(2_000);
    for (const code of made) expect(code).to.match(/^[0-9A-Za-z]{12}$/);
  });

  it('counts a person\'s browser as a click and not previewers, crawlers, scripts or a missing User-Agent', () => {
    expect(countsAsClick('Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36')).to.equal(true);
    expect(countsAsClick('Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1')).to.equal(true);
    for (const ua of ['WhatsApp/2.23.20.0 A', 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)', 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
      'Twitterbot/1.0', 'TelegramBot (like TwitterBot)', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'Mozilla/5.0 (compatible; bingbot/2.0)',
      'LinkedInBot/1.0 (compatible; Mozilla/5.0)', 'Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5', 'Mozilla/5.0 (Macintosh) Applebot/0.1', 'curl/8.5.0', '', undefined]) {
      expect(countsAsClick(ua), String(ua)).to.equal(false);
    }
  });
});

describe('compliance check and our own links', () => {
  it('treats our own tracked links as safe and still flags a third-party shortener', async () => {
    const { checkCompliance } = await import('../../../core/domain/compliance.ts');
    const bases = ['https://nkra.example/l'];
    const ids = (text: string) => checkCompliance(text, 'TRANSACTIONAL', ['en'], { ownLinkBases: bases }).issues.map((i) => i.ruleId);
    expect(ids('Your account will be suspended, verify now: https://nkra.example/l/AbCdEf012345')).to.not.include('phishing.urgency-link');
    expect(ids('Your account will be suspended, verify now: https://evil.example/x')).to.include('phishing.urgency-link');
    expect(ids('Offer: https://bit.ly/abc and https://nkra.example/l/AbCdEf012345')).to.include('phishing.url-shortener');
    expect(checkCompliance('Offer: https://nkra.example/l/AbCdEf012345 will be suspended', 'TRANSACTIONAL').issues.map((i) => i.ruleId)).to.include('phishing.urgency-link');
  });
});
