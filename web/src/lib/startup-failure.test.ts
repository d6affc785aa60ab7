import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { showStartupFailure } from './startup-failure';

describe('showStartupFailure', () => {
  it("replaces the loading shell with 'App Loading Error', the message and a Reload button", () => {
    const root = document.createElement('div');
    root.innerHTML = '<p>RescueLog loading shell</p>';
    document.body.append(root);
    showStartupFailure(new Error('Failed to fetch dynamically imported module'), root);
    expect(screen.getByRole('heading', { name: 'App Loading Error' })).toBeTruthy();
    expect(screen.getByText('Failed to fetch dynamically imported module')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    expect(screen.queryByText('RescueLog loading shell')).toBeNull();
    root.remove();
  });
});
