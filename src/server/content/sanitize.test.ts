// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { sanitizeRichText } from './sanitize';

/** Anything in the output that could run script or load something when a website shows it as HTML. */
const DANGEROUS = /<script|<style|<iframe|<svg|<img|<object|<embed|<form|<input|<math|<template|<base|<meta|<link|\son\w+\s*=|javascript:|vbscript:|data:|srcdoc|formaction/i;

describe('sanitizeRichText', () => {
  it('keeps what TipTap’s StarterKit writes, unchanged', () => {
    const html =
      '<h2>Menu</h2><p>Our <strong>pizza</strong> is <em>hot</em>, <s>cheap</s> and <u>good</u>; try <code>x</code>.</p>' +
      '<ul><li><p>One</p></li></ul><ol start="3"><li><p>Three</p></li></ol><blockquote><p>Quote</p></blockquote>' +
      '<pre><code class="language-js">let a = 1;</code></pre><p>Line<br>break</p><hr>' +
      '<p><a target="_blank" rel="noopener noreferrer nofollow" href="https://example.com/a?b=1&amp;c=2">out</a> <a href="/about">in</a> <a href="mailto:a@example.com">mail</a> <a href="#top">up</a></p>';
    // Void tags come back self-closed (`<br />`), which every HTML parser reads alike.
    expect(sanitizeRichText(html)).toBe(html.replace(/<(br|hr)>/g, '<$1 />'));
  });

  it.each([
    ['a script tag', '<p>hi</p><script>alert(1)</script>', '<p>hi</p>'],
    // No script to a browser either (it reads the null as U+FFFD): its text stays, as text.
    ['a script split by a null', '<scr\u0000ipt>alert(1)</scr\u0000ipt><p>ok</p>', 'alert(1)<p>ok</p>'],
    ['an event handler', '<p onclick="alert(1)" onmouseover=alert(1)>hi</p>', '<p>hi</p>'],
    ['an image with onerror', '<img src=x onerror=alert(1)><p>ok</p>', '<p>ok</p>'],
    ['an svg with onload', '<svg onload=alert(1)><script>alert(2)</script><text>t</text></svg><p>ok</p>', '<p>ok</p>'],
    ['an iframe', '<iframe src="https://evil.example" srcdoc="<script>alert(1)</script>"></iframe><p>ok</p>', '<p>ok</p>'],
    ['a style block', '<style>body{background:url(javascript:alert(1))}</style><p>ok</p>', '<p>ok</p>'],
    ['a style attribute', '<p style="background:url(javascript:alert(1))">ok</p>', '<p>ok</p>'],
    ['a javascript: link', '<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['a javascript: link in disguise', '<a href="  JaVaScRiPt:alert(1)">x</a><a href="java&#x09;script:alert(1)">y</a><a href="&#106;avascript:alert(1)">z</a>', '<a>x</a><a>y</a><a>z</a>'],
    ['a data: link', '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>', '<a>x</a>'],
    ['a vbscript: link', '<a href="vbscript:msgbox(1)">x</a>', '<a>x</a>'],
    ['a protocol-relative link', '<a href="//evil.example/x">x</a>', '<a>x</a>'],
    ['a form with formaction', '<form action="https://evil.example"><button formaction="javascript:alert(1)">go</button></form>', 'go'],
    ['an object and embed', '<object data="evil.swf"></object><embed src="evil.swf"><p>ok</p>', '<p>ok</p>'],
    ['a base and meta', '<base href="https://evil.example/"><meta http-equiv="refresh" content="0;url=javascript:alert(1)"><p>ok</p>', '<p>ok</p>'],
    ['a template', '<template><img src=x onerror=alert(1)></template><p>ok</p>', '<p>ok</p>'],
    ['math with a link', '<math><mtext><a href="javascript:alert(1)">x</a></mtext></math><p>ok</p>', '<p>ok</p>'],
    ['a comment that hides markup', '<!--<img src=x onerror=alert(1)>--><p>ok</p>', '<p>ok</p>'],
    ['an unclosed attribute', '<p title="x><script>alert(1)</script>">ok</p>', '<p>ok</p>'],
    ['markup in a noscript', '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript><p>ok</p>', '<p>ok</p>'],
  ])('strips %s', (_name, dirty, clean) => {
    const out = sanitizeRichText(dirty);
    expect(out).not.toMatch(DANGEROUS);
    expect(out).toBe(clean);
  });

  it('forces noopener and noreferrer on a link to a new tab, and drops other targets and rel words', () => {
    expect(sanitizeRichText('<a href="https://x.example" target="_blank">x</a>')).toBe('<a target="_blank" rel="noopener noreferrer" href="https://x.example">x</a>');
    expect(sanitizeRichText('<a href="https://x.example" target="_blank" rel="opener">x</a>')).toBe('<a target="_blank" rel="noopener noreferrer" href="https://x.example">x</a>');
    expect(sanitizeRichText('<a href="/a" target="_top" rel="nofollow">x</a>')).toBe('<a rel="nofollow" href="/a">x</a>');
  });

  it('keeps the text of tags it does not allow, escaped, and maps older tags to their allowed kin', () => {
    expect(sanitizeRichText('<div><span class="x">Hello</span> &lt;b&gt;</div>')).toBe('Hello &lt;b&gt;');
    expect(sanitizeRichText('<h1>A</h1><h6>B</h6><b>c</b><i>d</i><del>e</del>')).toBe('<h2>A</h2><h4>B</h4><strong>c</strong><em>d</em><s>e</s>');
    expect(sanitizeRichText('<code class="language-js evil">x</code>')).toBe('<code class="language-js">x</code>');
  });
});
