import { expect } from 'chai';
import { verifySignature, type SignedRequest } from '../support/fake-vendors/fake-s3-signature.ts';

/**
 * The fake S3's Signature V4 check (tests/support/fake-vendors/fake-s3-signature.ts) against the worked
 * examples of AWS's "Signature Calculations for the Authorization Header" (Amazon S3 API reference), so
 * it verifies the SDK by the specification rather than by agreeing with the SDK's own signer.
 */
const KEYS = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
const SIGNED_AT = new Date('2013-05-24T00:00:00Z');
const EMPTY = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const HOST = 'examplebucket.s3.amazonaws.com';

const authorization = (signedHeaders: string, signature: string) =>
  `AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=${signedHeaders},Signature=${signature}`;

const getObject = (): SignedRequest => ({
  method: 'GET', rawPath: '/test.txt', rawQuery: '', body: Buffer.alloc(0),
  headers: { host: HOST, range: 'bytes=0-9', 'x-amz-content-sha256': EMPTY, 'x-amz-date': '20130524T000000Z',
    authorization: authorization('host;range;x-amz-content-sha256;x-amz-date', 'f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41') },
});

describe('fake S3: Signature V4 verification', () => {
  it('accepts the AWS examples GET Object and GET Bucket (list objects)', () => {
    expect(verifySignature(getObject(), KEYS, 'us-east-1', SIGNED_AT)).to.deep.equal({ ok: true });
    const list: SignedRequest = {
      method: 'GET', rawPath: '/', rawQuery: 'max-keys=2&prefix=J', body: Buffer.alloc(0),
      headers: { host: HOST, 'x-amz-content-sha256': EMPTY, 'x-amz-date': '20130524T000000Z',
        authorization: authorization('host;x-amz-content-sha256;x-amz-date', '34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7') },
    };
    expect(verifySignature(list, KEYS, 'us-east-1', SIGNED_AT)).to.deep.equal({ ok: true });
  });

  it('refuses the example with another secret, a changed header, path or query, with SignatureDoesNotMatch', () => {
    const changes: Array<(r: SignedRequest) => void> = [
      (r) => { r.headers['range'] = 'bytes=0-10'; },
      (r) => { r.rawPath = '/other.txt'; },
      (r) => { r.rawQuery = 'versionId=1'; },
      (r) => { r.method = 'DELETE'; },
    ];
    for (const change of changes) {
      const request = getObject();
      change(request);
      expect(verifySignature(request, KEYS, 'us-east-1', SIGNED_AT)).to.include({ ok: false, code: 'SignatureDoesNotMatch', status: 403 });
    }
    expect(verifySignature(getObject(), { ...KEYS, secretAccessKey: 'another-secret' }, 'us-east-1', SIGNED_AT)).to.include({ code: 'SignatureDoesNotMatch' });
  });

  it('refuses an unknown key, another region, a stale date and a body that does not match its hash', () => {
    expect(verifySignature(getObject(), { ...KEYS, accessKeyId: 'AKIAOTHER' }, 'us-east-1', SIGNED_AT)).to.include({ code: 'InvalidAccessKeyId' });
    expect(verifySignature(getObject(), KEYS, 'eu-west-1', SIGNED_AT)).to.include({ code: 'AuthorizationHeaderMalformed' });
    expect(verifySignature(getObject(), KEYS, 'us-east-1', new Date('2013-05-24T00:16:00Z'))).to.include({ code: 'RequestTimeTooSkewed' });
    expect(verifySignature({ ...getObject(), body: Buffer.from('not empty') }, KEYS, 'us-east-1', SIGNED_AT)).to.include({ code: 'XAmzContentSHA256Mismatch' });
    const unsigned = getObject();
    delete unsigned.headers.authorization;
    expect(verifySignature(unsigned, KEYS, 'us-east-1', SIGNED_AT)).to.include({ code: 'AccessDenied', status: 403 });
  });
});
