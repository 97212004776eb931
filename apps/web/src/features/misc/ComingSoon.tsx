import { Link } from 'react-router';

/** A tidy stand-in for the screens that arrive with the second web issue. */
export default function ComingSoon({ title }: { title: string }) {
  return (
    <section className="coming-soon">
      <h1>{title}</h1>
      <p>即将上线，敬请期待</p>
      <Link to="/explore" className="button primary">
        去发现
      </Link>
    </section>
  );
}
