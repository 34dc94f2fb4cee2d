import { passwordLength } from '../constants/limits.js';

// A practical address check (the server sends the real verification).
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const emailProblem = (email: string): string | undefined => {
  if (email.trim().length === 0) return 'E-mail is required';
  if (!emailPattern.test(email.trim())) return 'Enter a valid e-mail address';
  return undefined;
};

export const passwordProblem = (password: string): string | undefined => {
  if (password.length === 0) return 'Password is required';
  if (password.length < passwordLength.min) {
    return `Password must be at least ${passwordLength.min} characters`;
  }
  if (password.length > passwordLength.max) {
    return `Password must be at most ${passwordLength.max} characters`;
  }
  return undefined;
};
