import { render, screen } from '@testing-library/react';
import { SOP_MARKUP_MESSAGES } from '@rescuelog/sync-protocol/reference/sop-markup';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/test/render-route';
import { SopBody } from './sop-body';
import { SopEditor } from './sop-editor';

describe('SopBody', () => {
  it('renders headings, lists, bold and safe links as elements', () => {
    render(
      <SopBody
        body={
          '# Radio\n- **Daily** check\n\nSee [the guide](https://example.org) and [CPR](/protocols/cpr).'
        }
      />,
    );
    expect(screen.getByRole('heading', { level: 2, name: 'Radio' })).toBeVisible();
    expect(screen.getByRole('listitem')).toHaveTextContent('Daily check');
    expect(screen.getByText('Daily').tagName).toBe('STRONG');
    const external = screen.getByRole('link', { name: 'the guide' });
    expect(external).toHaveAttribute('href', 'https://example.org');
    expect(external).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByRole('link', { name: 'CPR' })).not.toHaveAttribute('target');
  });

  it('shows hostile input as text, never as markup or a script link', () => {
    const { container } = render(
      <SopBody body={'<img src=x onerror="alert(1)"> [x](javascript:alert(1))'} />,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(screen.queryByRole('link')).toBeNull();
    expect(container).toHaveTextContent('<img src=x onerror="alert(1)">');
  });
});

describe('SopEditor', () => {
  it('refuses raw HTML with the message that says what to write instead', async () => {
    const { user } = renderRoute('/internal-protocols/new', <SopEditor />);
    await user.type(screen.getByLabelText(/Title/), 'Radio');
    await user.selectOptions(screen.getByLabelText(/Category/), 'Communications');
    await user.type(screen.getByLabelText(/Text/), '<script>alert(1)</script>');
    await user.click(screen.getByRole('button', { name: 'Publish SOP' }));
    expect(screen.getByRole('alert')).toHaveTextContent(SOP_MARKUP_MESSAGES.rawHtml);
  });

  it('asks for a title and a category', async () => {
    const { user } = renderRoute('/internal-protocols/new', <SopEditor />);
    await user.click(screen.getByRole('button', { name: 'Publish SOP' }));
    expect(screen.getByText('Title is required')).toBeVisible();
    expect(screen.getByText('Choose a category')).toBeVisible();
    expect(screen.getByText('The SOP needs some text')).toBeVisible();
  });
});
