// JSON bodies nested deeper than any request needs are refused before anything walks them
// (recursive code would run out of stack): docs/API-LIMITS.md.
export const maxJsonDepth = 100;

export const jsonDepthMessage = `The request body nests deeper than ${maxJsonDepth} levels`;

// Scans the text once, ignoring brackets inside strings.
export const jsonNestsDeeperThan = (text: string, limit: number): boolean => {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 92)
        index++; // backslash: skip the escaped character
      else if (char === 34) inString = false;
    } else if (char === 34) {
      inString = true;
    } else if (char === 91 || char === 123) {
      depth++;
      if (depth > limit) return true;
    } else if (char === 93 || char === 125) {
      depth--;
    }
  }
  return false;
};
