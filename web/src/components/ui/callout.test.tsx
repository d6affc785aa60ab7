import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Callout } from './callout';
import styles from './callout.module.css';

describe('Callout', () => {
  it("is a div by default, or a paragraph, with its tone's class and the given attributes", () => {
    render(
      <>
        <Callout tone="info" role="note" className="extra">
          Locked
        </Callout>
        <Callout as="p" tone="danger" compact strong role="alert">
          Scene not safe
        </Callout>
      </>,
    );
    const note = screen.getByRole('note');
    expect(note.tagName).toBe('DIV');
    expect(note).toHaveClass(String(styles.callout), String(styles.info), 'extra');
    expect(note).not.toHaveClass(String(styles.compact));

    const alert = screen.getByRole('alert');
    expect(alert.tagName).toBe('P');
    expect(alert).toHaveClass(
      String(styles.callout),
      String(styles.danger),
      String(styles.compact),
      String(styles.strong),
    );
  });
});
