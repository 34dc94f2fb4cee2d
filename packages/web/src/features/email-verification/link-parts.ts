// The mailed link's two parts; links come in both orders ({token}/{email} and {email}/{token}):
// the address is the part with an @.
export const linkParts = (
  first: string,
  second: string,
): { verificationToken: string; email: string } =>
  first.includes('@') && !second.includes('@')
    ? { verificationToken: second, email: first }
    : { verificationToken: first, email: second };
