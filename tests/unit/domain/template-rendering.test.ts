import { expect } from 'chai';
import { extractVariables, renderTemplate } from '../../../core/domain/template-rendering.ts';

describe('domain: extractVariables', () => {
  it('finds names with or without spaces inside the braces, once each, in order', () => {
    expect(extractVariables('Hi {{name}}, {{ amount }} is due {{  due_date }}. Thanks {{name}}!')).to.deep.equal(['name', 'amount', 'due_date']);
  });

  it('accepts underscores, digits after the first character and dots', () => {
    expect(extractVariables('{{_id}} {{customer.first_name}} {{line2}}')).to.deep.equal(['_id', 'customer.first_name', 'line2']);
  });

  it('ignores malformed or invalid placeholders', () => {
    expect(extractVariables('{{ }} {{1st}} {{first name}} {name} {{ name } {{name-x}} {{')).to.deep.equal([]);
  });

  it('returns nothing for a body without placeholders', () => {
    expect(extractVariables('Your order has shipped.')).to.deep.equal([]);
  });
});

describe('domain: renderTemplate', () => {
  it('substitutes every placeholder, however spaced', () => {
    expect(renderTemplate('Hi {{name}}, pay GHS {{ amount }} by {{date }}.', { name: 'Ama', amount: '25.00', date: '1 March' }, 'text'))
      .to.deep.equal({ ok: true, text: 'Hi Ama, pay GHS 25.00 by 1 March.' });
  });

  it('fails naming every missing variable instead of leaving a blank', () => {
    expect(renderTemplate('Hi {{name}}, code {{ code }}, ref {{ref}}', { name: 'Kofi' }, 'text'))
      .to.deep.equal({ ok: false, missing: ['code', 'ref'] });
  });

  it('treats an empty or whitespace-only value as missing', () => {
    expect(renderTemplate('Hi {{name}}!', { name: '' }, 'text')).to.deep.equal({ ok: false, missing: ['name'] });
    expect(renderTemplate('Hi {{name}}!', { name: '  ' }, 'text')).to.deep.equal({ ok: false, missing: ['name'] });
  });

  it('does not take inherited properties as values', () => {
    expect(renderTemplate('{{constructor}} {{toString}} {{__proto__}}', {}, 'text'))
      .to.deep.equal({ ok: false, missing: ['constructor', 'toString', '__proto__'] });
  });

  it('looks a dotted name up as one literal key', () => {
    expect(renderTemplate('Hi {{customer.name}}', { 'customer.name': 'Esi' }, 'text')).to.deep.equal({ ok: true, text: 'Hi Esi' });
  });

  it('ignores variables the body does not use', () => {
    expect(renderTemplate('Hello', { name: 'Ama' }, 'text')).to.deep.equal({ ok: true, text: 'Hello' });
  });

  it('does not render placeholders that arrive inside a value', () => {
    expect(renderTemplate('Hi {{name}}', { name: '{{secret}}', secret: 'leak' }, 'text')).to.deep.equal({ ok: true, text: 'Hi {{secret}}' });
  });

  it('inserts replacement patterns such as $& literally', () => {
    expect(renderTemplate('Total: {{amount}}', { amount: "$&$1$'" }, 'text')).to.deep.equal({ ok: true, text: "Total: $&$1$'" });
  });

  it('leaves malformed braces as written', () => {
    expect(renderTemplate('Use {{ or {{1st}} or {name} for {{name}}', { name: 'Yaw' }, 'text'))
      .to.deep.equal({ ok: true, text: 'Use {{ or {{1st}} or {name} for Yaw' });
  });

  it('escapes & < > " \' in values in html mode but not the template markup', () => {
    const result = renderTemplate('<p class="x">Hi {{name}}</p>', { name: `<script>alert("x")</script> & 'co'` }, 'html');
    expect(result).to.deep.equal({ ok: true, text: '<p class="x">Hi &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;</p>' });
  });

  it('inserts values verbatim in text mode', () => {
    expect(renderTemplate('Hi {{name}}', { name: 'Ama & <Kofi>' }, 'text')).to.deep.equal({ ok: true, text: 'Hi Ama & <Kofi>' });
  });

  it('keeps Twi letters and emoji in values unchanged', () => {
    expect(renderTemplate('{{greeting}} 🎉', { greeting: 'Afehyiapa, Ɛsi' }, 'html')).to.deep.equal({ ok: true, text: 'Afehyiapa, Ɛsi 🎉' });
  });
});
