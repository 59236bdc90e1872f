import { Badge } from '@/components/ui/layout';

export function StudyStatusBadge({ status, label }: { status: 'draft' | 'open' | 'closed'; label: string }) {
  return (
    <span data-testid="study-status" data-status={status}>
      <Badge tone={status === 'open' ? 'green' : status === 'closed' ? 'neutral' : 'amber'}>{label}</Badge>
    </span>
  );
}
