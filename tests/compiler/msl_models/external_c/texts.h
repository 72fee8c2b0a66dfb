/* texts.h -- external C functions of the tests on Strings (External.mo). */
#ifndef EXTERNAL_TEXTS_H
#define EXTERNAL_TEXTS_H

/* the number of characters of s */
int texts_length(const char *s);
/* "<prefix>(<s>)": a String result in memory of ModelicaAllocateString */
const char *texts_wrapped(const char *prefix, const char *s);
/* how many times `c` (its first character) occurs in s, through an Integer output */
void texts_count(const char *s, const char *c, int *count);

#endif
